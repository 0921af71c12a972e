// A comment-form test anchor: the block below binds this file to the example Spec.
import { describe, expect, it } from "vitest"
import { closeRide } from "../../src/rides/return.js"

/**
 * @sdpAnchor test:rides.return-bike.normal-return
 * @sdpLabel a twelve-minute ride is charged 280 cents
 * @sdpVerifies spec:rides.return-bike.normal-return
 */
describe("return", () => {
  it("charges the unlock fee plus twelve started minutes", () => {
    const receipt = closeRide({ id: "ride-1", startDock: "dock-7", startedAt: 0 }, "dock-9", 12 * 60 * 1000)
    expect(receipt.fareCents).toBe(280)
  })
})
