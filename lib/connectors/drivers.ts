import type { ConnectorKind } from "../db/schema/connectors";
import type { AnyDriver } from "./driver";
import { moodleDriver } from "./moodle/driver";
import { odooDriver } from "./odoo/driver";
import { pohodaDriver } from "./pohoda/driver";

/** The driver of each kind of connector. Each kind's driver adds itself here. */
const BUILT_IN: readonly AnyDriver[] = [odooDriver, moodleDriver, pohodaDriver];

const TEST_DRIVERS = Symbol.for("spolu.connectors.testDrivers");
type Holder = { [TEST_DRIVERS]?: Map<ConnectorKind, AnyDriver> };

/** Tests only: a stand-in driver for a kind (null removes it). */
export function setTestDriver(kind: ConnectorKind, driver: AnyDriver | null): void {
  const map = ((globalThis as Holder)[TEST_DRIVERS] ??= new Map());
  if (driver) map.set(kind, driver);
  else map.delete(kind);
}

export function driverOf(kind: ConnectorKind): AnyDriver | null {
  return (globalThis as Holder)[TEST_DRIVERS]?.get(kind) ?? BUILT_IN.find((driver) => driver.kind === kind) ?? null;
}
