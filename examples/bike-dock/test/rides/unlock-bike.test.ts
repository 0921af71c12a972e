// Constant-form test and oracle anchors. The test anchor enables the example Spec it verifies;
// that example's own `verifies` then gives its parent a verifier.
import { describe, expect, it } from "vitest"
import { oracleAnchorId, ref, specOracle, specTest, testAnchorId } from "@libar-dev/software-delivery-protocol"
import { type BikeState, type UnlockResult, unlockBike } from "../../src/rides/unlock.js"

export const availableBikeTest = specTest({
  id: testAnchorId("test:rides.unlock-bike.available-bike"),
  label: "an available bike is released",
  verifies: ref("spec:rides.unlock-bike.available-bike")
})

export const unlockOracle = specOracle({
  id: oracleAnchorId("oracle:rides.unlock-bike"),
  label: "expected unlock outcome",
  models: ref("spec:rides.unlock-bike")
})

/** The expected outcome for any point of the unlock example space. */
export const expectedUnlock = (openRides: number, bikeState: BikeState): UnlockResult["_tag"] =>
  openRides === 0 && bikeState === "available" ? "Released" : "Refused"

describe("unlock", () => {
  it("releases an available bike to a rider with no open ride", () => {
    const latches: Array<string> = []
    const result = unlockBike(
      {
        openRides: () => 0,
        bikeAt: () => "available",
        codeOf: () => "4711",
        openLatch: (dock) => latches.push(dock),
        newRideId: () => "ride-1"
      },
      "rider-1",
      "dock-7",
      "4711"
    )
    expect(result._tag).toBe(expectedUnlock(0, "available"))
    expect(latches).toEqual(["dock-7"])
  })
})
