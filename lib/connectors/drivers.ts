import type { ConnectorKind } from "../db/schema/connectors";
import type { AnyDriver } from "./driver";
import { moodleDriver } from "./moodle/driver";
import { odooDriver } from "./odoo/driver";
import { pohodaDriver } from "./pohoda/driver";

/** The driver of each kind of connector. Each kind's driver adds itself here. */
const BUILT_IN: readonly AnyDriver[] = [odooDriver, moodleDriver, pohodaDriver];

export function driverOf(kind: ConnectorKind): AnyDriver | null {
  return BUILT_IN.find((driver) => driver.kind === kind) ?? null;
}
