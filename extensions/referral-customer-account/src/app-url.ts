// The app's public URL (application_url in shopify.app.toml), which the page
// calls. Extensions are bundled as they are, with no environment at run
// time: set it to your app's address before `shopify app deploy`, as you do
// for extensions/referral-thank-you/src/app-url.ts. The page says referrals
// are unavailable while it is not https.
export const APP_URL = "https://example.com";
