import { eq } from "drizzle-orm";
import { db } from "../db/client";
import { moduleSettings } from "../db/schema/modules";
import { users } from "../db/schema/users";

export interface ModuleSwitch {
  moduleId: string;
  enabled: boolean;
}

export interface ModuleSettingDetail extends ModuleSwitch {
  updatedAt: Date;
  updatedBy: { id: string; name: string } | null;
}

/** The poll every process runs every MODULE_REFRESH_MS: a few rows of two columns. */
export async function listModuleSwitches(): Promise<ModuleSwitch[]> {
  return db().select({ moduleId: moduleSettings.moduleId, enabled: moduleSettings.enabled }).from(moduleSettings);
}

/** The switches with when and by whom (for the admin API). */
export async function listModuleSettingDetails(): Promise<ModuleSettingDetail[]> {
  const rows = await db()
    .select({
      moduleId: moduleSettings.moduleId,
      enabled: moduleSettings.enabled,
      updatedAt: moduleSettings.updatedAt,
      updaterId: users.id,
      updaterName: users.name,
    })
    .from(moduleSettings)
    .leftJoin(users, eq(users.id, moduleSettings.updatedBy));
  return rows.map(({ updaterId, updaterName, ...row }) => ({
    ...row,
    updatedBy: updaterId && updaterName !== null ? { id: updaterId, name: updaterName } : null,
  }));
}

export async function upsertModuleSetting(moduleId: string, enabled: boolean, updatedBy: string, at: Date): Promise<void> {
  await db()
    .insert(moduleSettings)
    .values({ moduleId, enabled, updatedBy, updatedAt: at })
    .onConflictDoUpdate({ target: moduleSettings.moduleId, set: { enabled, updatedBy, updatedAt: at } });
}

export async function deleteModuleSetting(moduleId: string): Promise<void> {
  await db().delete(moduleSettings).where(eq(moduleSettings.moduleId, moduleId));
}
