// Fare pricing. The anchor below uses the comment form: no import is needed, the reserved
// tags in a top-level block comment are the whole binding.

/**
 * Prices a closed ride in whole cents.
 *
 * @sdpAnchor impl:rides.fare-calculator
 * @sdpLabel fareCents()
 * @sdpSatisfies spec:rides.ride-fare-rule
 * @sdpReferences spec:decisions.per-minute-fares
 * @sdpComponent component:rides.ride-service
 * @sdpRole service
 */
export const UNLOCK_FEE_CENTS = 100
export const CENTS_PER_STARTED_MINUTE = 15
export const FREE_SWAP_SECONDS = 120

export interface ClosedRide {
  readonly durationSeconds: number
  readonly startDock: string
  readonly endDock: string
}

export const fareCents = (ride: ClosedRide): number => {
  if (ride.durationSeconds < FREE_SWAP_SECONDS && ride.startDock === ride.endDock) return 0
  const startedMinutes = Math.ceil(ride.durationSeconds / 60)
  return UNLOCK_FEE_CENTS + startedMinutes * CENTS_PER_STARTED_MINUTE
}
