// Fault reports from riders. The Spec this satisfies states `defined`, not `ready`: a reader
// shows the code as implemented ahead of its Spec, which is the honest picture.
import { codeAnchor, codeAnchorId, ref } from "@libar-dev/software-delivery-protocol"

export const faultIntake = codeAnchor({
  id: codeAnchorId("impl:docks.fault-intake"),
  label: "reportFault()",
  satisfies: ref("spec:docks.fault-reporting")
})

export type Fault = "brake" | "chain" | "light"

const SAFETY_FAULTS: ReadonlySet<Fault> = new Set(["brake", "chain"])

export interface FaultOutcome {
  readonly lockedOut: boolean
}

export const reportFault = (fault: Fault): FaultOutcome => ({ lockedOut: SAFETY_FAULTS.has(fault) })
