// Closing a ride when a dock reports the bike locked.
import { fareCents } from "./fare.js"

/**
 * Closes the open ride for a bike that a slot just locked, and charges its fare.
 *
 * @sdpAnchor impl:rides.return-bike
 * @sdpLabel closeRide()
 * @sdpSatisfies spec:rides.return-bike
 * @sdpComponent component:rides.ride-service
 * @sdpUses impl:rides.fare-calculator
 */
export interface OpenRide {
  readonly id: string
  readonly startDock: string
  readonly startedAt: number
}

export interface ClosedRideReceipt {
  readonly rideId: string
  readonly fareCents: number
}

export const closeRide = (ride: OpenRide, endDock: string, lockedAt: number): ClosedRideReceipt => ({
  rideId: ride.id,
  fareCents: fareCents({
    durationSeconds: Math.max(0, Math.floor((lockedAt - ride.startedAt) / 1000)),
    startDock: ride.startDock,
    endDock
  })
})
