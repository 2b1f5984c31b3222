import { z } from "@hono/zod-openapi";
import { MODULE_IDS } from "./ids";

export const moduleIdParams = z.object({
  id: z.string().openapi({ description: `One of: ${MODULE_IDS.join(", ")}`, example: "activity" }),
});

export const setModuleInput = z
  .strictObject({ enabled: z.boolean({ message: "must be true or false" }) })
  .openapi("SetModuleInput");
export type SetModuleInput = z.infer<typeof setModuleInput>;

export const moduleOutput = z
  .object({
    id: z.enum(MODULE_IDS),
    name: z.string().openapi({ description: "The module's name, in English" }),
    description: z.string().openapi({ description: "What it covers, in English" }),
    enabled: z.boolean().openapi({ description: "Whether it is on now (in the process that answered)" }),
    source: z.enum(["configuration", "administrator"]).openapi({
      description:
        "`administrator`: an administrator switched it (beating MODULES_DISABLED); `configuration`: MODULES_DISABLED decides",
    }),
    configured: z.boolean().openapi({ description: "What the configuration alone says: false when MODULES_DISABLED lists it" }),
    updatedAt: z.iso
      .datetime()
      .nullable()
      .openapi({ description: "When an administrator last switched it; null with source `configuration`" }),
    updatedBy: z
      .object({ id: z.uuid(), name: z.string() })
      .nullable()
      .openapi({ description: "Who switched it; null with source `configuration`, or when their account was deleted" }),
  })
  .openapi("FeatureModule");
export type ModuleOutput = z.infer<typeof moduleOutput>;

export const moduleListOutput = z.object({ items: z.array(moduleOutput) }).openapi("FeatureModuleList");
export type ModuleListOutput = z.infer<typeof moduleListOutput>;
