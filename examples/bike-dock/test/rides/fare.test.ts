import { describe, expect, it } from "vitest"
import { ref, specTest, testAnchorId } from "@libar-dev/software-delivery-protocol"
import { fareCents } from "../../src/rides/fare.js"

export const fareRuleTest = specTest({
  id: testAnchorId("test:rides.ride-fare-rule"),
  label: "fares follow the per-minute rule",
  verifies: ref("spec:rides.ride-fare-rule")
})

describe("fare", () => {
  it("charges the unlock fee plus 15 cents per started minute", () => {
    expect(fareCents({ durationSeconds: 61, startDock: "a", endDock: "b" })).toBe(130)
  })
})
