import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { NOTIFICATION_KINDS } from "~/models/notifications/catalogue";

// Issue 29: staff invites are e-mailed (the staff.invite kind), so neither
// the Staff page nor the README may tell the admin they are not.
const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");

describe("staff invite texts", () => {
  it("say the invite is e-mailed, as the staff.invite notification does", () => {
    expect(NOTIFICATION_KINDS.map((k) => k.key)).toContain("staff.invite");
    const staff = JSON.parse(read("public/locales/en/Settings.json")).staff;
    for (const text of [staff.mailNote, staff.linkBody]) {
      expect(text).not.toMatch(/not sent/i);
      expect(text).toMatch(/e-mail/i);
    }
    const readme = read("README.md");
    expect(readme).not.toMatch(/Invite e-mails are\s+not sent yet/);
    expect(readme).toContain("staff.invite");
  });
});
