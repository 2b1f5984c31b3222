/**
 * The service's notion of "now". Everything that expires or comes due (the task-list cache, recurrence)
 * asks here, so that tests can move time forward instead of sleeping.
 */
const CLOCK = Symbol.for("spolu.clock");
type Holder = { [CLOCK]?: { offsetMs: number } };
const state = ((globalThis as Holder)[CLOCK] ??= { offsetMs: 0 });

/** Milliseconds since the epoch, as Date.now(), plus any test offset. */
export function now(): number {
  return Date.now() + state.offsetMs;
}

export function nowDate(): Date {
  return new Date(now());
}

/** Tests only: moves the clock forward (or back) by `ms`; `resetClock` undoes it. */
export function advanceClock(ms: number): void {
  state.offsetMs += ms;
}

export function resetClock(): void {
  state.offsetMs = 0;
}
