import { getTranslations } from "next-intl/server";
import { pageActor } from "@/components/auth/page-session";
import { NotificationBell } from "@/components/notifications/notification-bell";
import { CommandPalette } from "@/components/palette/command-palette";
import { KeyboardShortcuts } from "@/components/shortcuts/keyboard-shortcuts";
import { Link } from "@/i18n/navigation";
import type { Locale } from "@/lib/i18n/locales";
import { isModuleEnabled, type ModuleId } from "@/lib/modules/registry";
import { unreadCount } from "@/lib/notifications/service";
import { AccountMenu } from "./account-menu";
import { HeaderMenu } from "./header-menu";
import { LanguageSwitcher } from "./language-switcher";
import { Logo } from "./logo";
import { MainNav, type NavItem } from "./main-nav";
import { pageUser } from "./page-user";
import type { ThemeChoice } from "./theme";
import { ThemeSwitcher } from "./theme-switcher";

/**
 * The header of every localized page. Whether the visitor is signed in is decided here, on the server, so the
 * first paint already shows the right links: signed in, the sections in one row (the daily ones, the rest under
 * More; a module's only while it is on), the account menu (with Settings, and Admin for admins only), and outside
 * the phone menu, so that they show on every width, the command palette's button and the notification bell with
 * the unread count (the keyboard shortcuts work on every signed-in page); signed out, "Sign in" and "Create
 * account". The theme and language switchers are there for everyone.
 */
export async function SiteHeader({ locale, theme }: { locale: Locale; theme: ThemeChoice }) {
  const t = await getTranslations("Nav");
  const teams = await getTranslations("Teams");
  const family = await getTranslations("Family");
  const appName = (await getTranslations("Common"))("appName");
  const user = await pageUser();
  const actor = user && (await pageActor());
  const unread = actor ? (await unreadCount(actor)).unread : 0;
  // An entry with a `module` shows while that feature module is on (lib/modules/registry.ts); the `daily` ones
  // stay in the header's row, the rest go under More.
  const entries: (NavItem & { module?: ModuleId; daily?: true })[] = [
    { href: "/tasks", label: t("tasks"), daily: true },
    { href: "/board", label: t("board"), daily: true },
    { href: "/goals", label: t("goals"), daily: true },
    { href: "/teams", label: teams("team.nav"), daily: true },
    { href: "/requests", label: t("requests") },
    { href: "/projects", label: teams("project.nav"), module: "projects" },
    { href: "/family", label: family("nav"), module: "family" },
    { href: "/reviews", label: t("reviews"), module: "spaced-repetition" },
    { href: "/templates", label: t("templates"), module: "templates" },
    { href: "/time", label: t("time"), module: "time-tracking" },
    { href: "/chat", label: t("assistant"), module: "ai" },
    { href: "/briefing", label: t("briefing"), module: "ai" },
    { href: "/activity", label: t("activity"), module: "activity" },
    { href: "/achievements", label: t("achievements"), module: "gamification" },
  ];
  const shown = entries.filter(({ module }) => !module || isModuleEnabled(module));
  const link = ({ href, label }: NavItem): NavItem => ({ href, label });
  const daily = shown.filter((entry) => entry.daily).map(link);
  const more = shown.filter((entry) => !entry.daily).map(link);
  const accountLinks: NavItem[] = [
    { href: "/settings", label: t("settings") },
    ...(user?.isAdmin ? [{ href: "/admin", label: t("admin") }] : []),
  ];
  return (
    <header className="site-header shell-header">
      <Link href="/" className="brand" aria-label={`${appName} – ${t("home")}`}>
        <Logo />
        <span>{appName}</span>
      </Link>
      <HeaderMenu>
        {user && <MainNav label={t("mainNavigation")} moreLabel={t("more")} daily={daily} more={more} />}
        <div className="header-tools">
          <ThemeSwitcher initial={theme} />
          <LanguageSwitcher />
          {user ? (
            <AccountMenu name={user.name} email={user.email} links={accountLinks} home={`/${locale}`} />
          ) : (
            <div className="header-auth">
              <Link className="button" href="/sign-in">
                {t("signIn")}
              </Link>
              <Link className="button primary" href={{ pathname: "/sign-in", query: { mode: "register" } }}>
                {t("createAccount")}
              </Link>
            </div>
          )}
        </div>
      </HeaderMenu>
      {user && <CommandPalette sections={[...daily, ...more, ...accountLinks]} />}
      {user && <KeyboardShortcuts />}
      {actor && <NotificationBell unread={unread} timeZone={actor.timeZone} />}
    </header>
  );
}
