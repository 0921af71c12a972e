// A test anchor may verify a non-example Spec directly, as this one does for the epic workflow.
import { describe, expect, it } from "vitest"
import { closeRide } from "../../src/rides/return.js"
import { unlockBike } from "../../src/rides/unlock.js"

/**
 * One ride from unlock to return, end to end.
 *
 * @sdpAnchor test:rides.ride-lifecycle
 * @sdpVerifies spec:rides.ride-lifecycle
 */
describe("ride lifecycle", () => {
  it("opens a ride at one dock and closes it at another", () => {
    const unlocked = unlockBike(
      {
        openRides: () => 0,
        bikeAt: () => "available",
        codeOf: () => "1234",
        openLatch: () => undefined,
        newRideId: () => "ride-2"
      },
      "rider-2",
      "dock-1",
      "1234"
    )
    expect(unlocked._tag).toBe("Released")
    const receipt = closeRide({ id: "ride-2", startDock: "dock-1", startedAt: 0 }, "dock-2", 5 * 60 * 1000)
    expect(receipt).toEqual({ rideId: "ride-2", fareCents: 175 })
  })
})
