// The unlock use case. Its anchors use the constant form: top-level consts built with the
// protocol's builders, read statically by the extractor (this file is never executed by it).
import { codeAnchor, codeAnchorId, componentAnchorId, ref } from "@libar-dev/software-delivery-protocol"

export const rideServiceComponent = codeAnchor({
  id: codeAnchorId("component:rides.ride-service"),
  label: "ride service",
  satisfies: ref("spec:rides.ride-lifecycle")
})

export const unlockHandler = codeAnchor({
  id: codeAnchorId("impl:rides.unlock-bike"),
  label: "unlockBike()",
  satisfies: ref("spec:rides.unlock-bike"),
  component: componentAnchorId("component:rides.ride-service")
})

export type RiderId = string
export type DockId = string
export type UnlockCode = string
export type BikeState = "available" | "reserved" | "faulty"
export type UnlockRefusal = "ride already open" | "bike not available"

export interface Ride {
  readonly id: string
  readonly rider: RiderId
  readonly dock: DockId
}

/** What the unlock needs from the rest of the system. */
export interface UnlockPorts {
  readonly openRides: (rider: RiderId) => number
  readonly bikeAt: (dock: DockId) => BikeState | undefined
  readonly codeOf: (dock: DockId) => UnlockCode
  readonly openLatch: (dock: DockId) => void
  readonly newRideId: () => string
}

export type UnlockResult = { readonly _tag: "Released"; readonly ride: Ride } | { readonly _tag: "Refused"; readonly reason: UnlockRefusal }

export const unlockBike = (ports: UnlockPorts, rider: RiderId, dock: DockId, code: UnlockCode): UnlockResult => {
  // rule.oneOpenRide comes first: a rider with a bike out is refused even at a good dock.
  if (ports.openRides(rider) > 0) return { _tag: "Refused", reason: "ride already open" }
  // rule.availableOnly: a wrong code is treated like a missing bike, so codes cannot be probed.
  if (ports.bikeAt(dock) !== "available" || ports.codeOf(dock) !== code) {
    return { _tag: "Refused", reason: "bike not available" }
  }
  ports.openLatch(dock)
  return { _tag: "Released", ride: { id: ports.newRideId(), rider, dock } }
}
