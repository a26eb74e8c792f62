import { readFileSync } from "node:fs";
import { LANGUAGES } from "./app/i18n/language-table";
const codes = process.argv.slice(2);
for (const l of LANGUAGES.filter((x) => codes.includes(x.code))) {
  const cats = new Intl.PluralRules(l.tag).resolvedOptions().pluralCategories;
  const read = (ns: string) => { try { return JSON.parse(readFileSync(`public/locales/${l.code}/${ns}.json`, "utf8")); } catch { return {}; } };
  const a = read("Account.Common"), s = read("Account.Settings"), g = read("Global");
  console.log(`== ${l.code} (${l.tag}) plurals: ${cats.join(",")}`);
  console.log(JSON.stringify({ form: a.form && { firstName: a.form.firstName, lastName: a.form.lastName, email: a.form.email, password: a.form.password, paypal: a.form.paypalEmail, website: a.form.website, social: a.form.social, terms: a.form.terms }, forgot: a.forgot?.text, sent: a.forgot?.sent, invalid: a.reset?.invalid, loginTitle: a.login?.title, program: a.portal?.programName, loginNeeded: a.loginNeeded?.text, cur: s.currentPassword, gen: g.genericMessage, save: g.save }, null, 0));
}
