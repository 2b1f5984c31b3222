/**
 * The cookie that hides the "confirm your email address" banner for a week once dismissed: set in the browser
 * (components/auth/verify-email.tsx), read by the layout, which then leaves the banner out.
 */
export const VERIFY_BANNER_COOKIE = "spolu_verify_banner";
export const VERIFY_BANNER_DISMISS_SECONDS = 7 * 24 * 3600;
