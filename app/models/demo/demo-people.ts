// Who the demo shop's affiliates are: the app's demo seed and the store
// simulator's demo store both read this, so the store knows the affiliates
// as customers and their coupons as discount codes.

const FIRST = [
  "Ava",
  "Liam",
  "Mia",
  "Noah",
  "Emma",
  "Lucas",
  "Sofia",
  "Ethan",
  "Chloe",
  "Mateo",
  "Zoe",
  "Leo",
  "Aria",
  "Kai",
  "Nora",
  "Omar",
  "Ines",
  "Yuki",
  "Priya",
  "Jonas",
  "Elena",
  "Tomas",
  "Hana",
  "Felix",
];
const LAST = [
  "Nguyen",
  "Garcia",
  "Smith",
  "Müller",
  "Rossi",
  "Dubois",
  "Kim",
  "Silva",
  "Cohen",
  "Novak",
  "Jensen",
  "Okafor",
  "Tanaka",
  "Patel",
  "Larsen",
  "Costa",
  "Moreau",
  "Becker",
  "Ivanova",
  "Haddad",
  "Walsh",
  "Reyes",
  "Sato",
  "Berg",
];

export interface DemoAffiliate {
  index: number;
  firstName: string;
  lastName: string;
  email: string;
  referralCode: string;
  status: "approved" | "pending" | "denied" | "inactive";
  // The affiliate coupon (a 10 % discount code in the store), for the first eight.
  couponCode: string | null;
}

/** The 24 demo affiliates: most approved, one denied, one inactive, two pending. */
export function demoAffiliates(): DemoAffiliate[] {
  return FIRST.map((first, i) => {
    const last = LAST[i]!;
    const referralCode = `${first}${last.slice(0, 1)}${10 + i}`
      .toUpperCase()
      .normalize("NFD")
      .replace(/[^A-Z0-9]/g, "");
    return {
      index: i,
      firstName: first,
      lastName: last,
      email:
        `${first}.${last}`
          .toLowerCase()
          .normalize("NFD")
          .replace(/[^a-z.]/g, "") + "@example.com",
      referralCode,
      status: i >= 20 ? (i === 20 ? "denied" : i === 21 ? "inactive" : "pending") : "approved",
      couponCode: i < 8 ? `${referralCode}10` : null,
    };
  });
}
