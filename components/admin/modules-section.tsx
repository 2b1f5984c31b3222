import type { createFormatter } from "next-intl";
import { getTranslations } from "next-intl/server";
import type { ModuleOutput } from "@/lib/modules/schema";
import { ModuleSwitch } from "./module-switch";
import { AdminTableSection } from "./admin-table-section";

/*
 * The feature modules of /{locale}/admin (`GET /admin/modules`): each with its switch, whether the configuration
 * (MODULES_DISABLED) or an administrator decides, and a reset to the configuration. Names are localized; the
 * descriptions are the API's English ones (marked as such for screen readers).
 */
export async function ModulesSection({
  modules,
  format,
}: {
  modules: ModuleOutput[];
  format: ReturnType<typeof createFormatter>;
}) {
  const t = await getTranslations("Admin");
  const columns = { module: t("columnModule"), switch: t("columnSwitch"), source: t("columnSource") };
  return (
    <AdminTableSection id="modules" title={t("modulesTitle")} lead={t("modulesLead")} className="admin-modules" columns={columns}>
      {modules.map((module) => {
        const name = t(`moduleNames.${module.id}`);
        return (
          <tr key={module.id} data-module={module.id}>
            <th scope="row" data-label={columns.module}>
              <span id={`module-${module.id}`} className="admin-module-name">
                {name}
              </span>
              <span className="admin-module-description" lang="en" dir="ltr">
                {module.description}
              </span>
            </th>
            <td data-label={columns.switch}>
              <ModuleSwitch module={module} nameId={`module-${module.id}`} name={name} />
            </td>
            <td data-label={columns.source}>
              {module.source === "configuration"
                ? module.configured
                  ? t("sourceConfiguration")
                  : t("sourceConfigurationOff")
                : t("sourceAdministrator", {
                    name: module.updatedBy?.name ?? t("someAdministrator"),
                    date: format.dateTime(new Date(module.updatedAt!), { dateStyle: "medium", timeStyle: "short" }),
                  })}
            </td>
          </tr>
        );
      })}
    </AdminTableSection>
  );
}
