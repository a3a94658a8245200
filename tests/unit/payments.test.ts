import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { decimalToMinor, minorToDecimal } from "../../api/services/payments/types";
import { createVerotelProvider, flexpaySignature, flexpayUrlSignature } from "../../api/services/payments/verotel";
import { currencyOf, demoPackages, methodsFor, paymentCountry, retryMethodsFor } from "../../api/domain/payments/catalogue";
import { formatMoney } from "../../app/features/payments/money";
import { transactionCostsFor } from "../../contract/payment-methods";

/** Payment rules that need no database: money without floats, currencies and methods per country, the FlexPay signature. */
describe("money in minor units", () => {
  it("writes and reads FlexPay's nnn.nn amounts exactly, for every amount", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 999_999_999 }), (amount) => decimalToMinor(minorToDecimal(amount)) === amount));
    expect(minorToDecimal(2999)).toBe("29.99");
    expect(minorToDecimal(5)).toBe("0.05");
    expect(decimalToMinor("12.3")).toBe(1230);
    for (const bad of ["", "1e3", "-1.00", "1.234", " 1.00", "0x10", undefined, 12]) expect(decimalToMinor(bad)).toBeNull();
  });

  it("formats amounts in the reader's locale", () => {
    expect(formatMoney(2999, "EUR", "en")).toBe("€29.99");
    expect(formatMoney(2999, "EUR", "de")).toBe("29,99\u00a0€");
    expect(formatMoney(6499, "PLN", "pl")).toBe("64,99\u00a0zł");
    expect(formatMoney(1299, "GBP", "en")).toBe("£12.99");
  });
});

describe("packages and methods per payment country", () => {
  it("prices each country in its currency", () => {
    expect(["NL", "DE", "FI", "IE"].map(currencyOf)).toEqual(["EUR", "EUR", "EUR", "EUR"]);
    expect(["GB", "US", "PL", "DK", "SE", "NO", "CH", "CA"].map(currencyOf)).toEqual(["GBP", "USD", "PLN", "DKK", "SEK", "NOK", "CHF", "USD"]);
    const rows = demoPackages(1, ["NL", "CH"]);
    expect(rows.map((r) => [r.country, r.currency, r.credits, r.mark])).toEqual([
      ["NL", "EUR", 60, null], ["NL", "EUR", 150, "most_chosen"], ["NL", "EUR", 400, null], ["NL", "EUR", 1000, "best_value"],
      ["CH", "CHF", 60, null], ["CH", "CHF", 150, "most_chosen"], ["CH", "CHF", 400, null], ["CH", "CHF", 1000, "best_value"],
    ]);
    expect(rows.every((r) => Number.isInteger(r.amount))).toBe(true);
  });

  it("offers local methods only where they exist, SEPA in euro countries, and Apple Pay only with browser support", () => {
    const ids = (country: string) => methodsFor(country).map((m) => m.id);
    expect(ids("NL")).toEqual(["ideal", "cards", "paypal", "applepay", "sdd", "sct", "paysafecard"]);
    expect(ids("BE")[0]).toBe("bancontact");
    expect(ids("AT").slice(0, 3)).toEqual(["eps", "sofort", "giropay"]);
    expect(ids("DE").slice(0, 2)).toEqual(["sofort", "giropay"]);
    expect(ids("PL").slice(0, 2)).toEqual(["blik", "prezelewy24"]);
    expect(ids("GB")).toEqual(["cards", "paypal", "applepay", "paysafecard"]);
    expect(methodsFor("US").filter((m) => m.needs_browser_support).map((m) => m.id)).toEqual(["applepay"]);
  });

  it("takes the asked country if the site serves it, else the IP's, else the site's first", () => {
    const site = { countries: ["NL", "DE", "GB"] };
    expect(paymentCountry(site, "DE", "GB")).toBe("DE");
    expect(paymentCountry(site, "JP", "GB")).toBe("GB");
    expect(paymentCountry(site, undefined, null)).toBe("NL");
  });
});

describe("FlexPay signature", () => {
  it("is the SHA-256 of the key and the sorted parameters, without the signature itself (the library docs' example)", () => {
    // Verotel::FlexPay's documented example signs "aaB:custom1=xyz:custom2=:shopID=123".
    expect(flexpaySignature("aaB", { shopID: "123", custom1: "xyz", custom2: "", signature: "ignored" })).toBe("b78a4348fe45ec2cfd3a3d1b30d6067c14dd42c2e58a94f99fcced2fef0cc8bc");
  });

  // The test vector of Verotel's official FlexPay client (verotel/flexpay-php-client, tests/FlexPayTest.php): shop 68849.
  const vector = {
    secret: "zpXwe2D77g4P7ysGJcr3rY87TBYs6J",
    params: {
      shopID: "68849",
      saleID: "433456",
      priceAmount: "0.00",
      referenceID: "reference1234",
      priceCurrency: "USD",
      custom1: "My",
      description: "My Dščřčřřěřě&?=blah123",
      subscriptionType: "RECURRING",
      period: "P1M",
      name: "My name",
      trialAmount: "0.01",
      trialPeriod: "P3D",
      successURL: "http://backURL.test",
      declineURL: "http://declineURL.test",
      cancelDiscountPercentage: "30",
      blah: "something",
    },
    signOfFiltered: "ff5cf9bcc0497c8cb40087065e5016dcfbe2efd23327f6c67614fa23537c24b2",
    signOfAll: "e50b4e92fcd0a21114d3bf3a64f888edfbc784df170e70ee165c4350fe9ffc3c",
  };

  it("gives Verotel's published signature for its client's test parameters: a URL signs only the documented ones", () => {
    expect(flexpayUrlSignature(vector.secret, vector.params)).toBe(vector.signOfFiltered);
  });

  it("gives Verotel's published signature over all the parameters, as a postback is checked", () => {
    expect(flexpaySignature(vector.secret, vector.params)).toBe(vector.signOfAll);
  });
});

describe("Verotel postbacks", () => {
  const shopId = "68849";
  const key = "unit-test-signature-key";
  const signed = (params: Record<string, string>) => ({ ...params, signature: flexpaySignature(key, params) });
  const adapter = createVerotelProvider({ shopId, signatureKey: key, baseUrl: "https://verotel.invalid" });
  const sale = { shopID: shopId, type: "purchase", saleID: "433456", transactionID: "9123456", referenceID: "ref-1", priceAmount: "29.99", priceCurrency: "EUR", paymentMethod: "CC" };
  const notification = (query: Record<string, string>) => adapter.verifyNotification({ query: { provider: "verotel", ...query }, rawBody: "", headers: {} });

  it("refuses the parameters of our own signed purchase URL (same key, type=purchase, shopID, referenceID)", async () => {
    const { redirectUrl } = (await adapter.createPayment({ paymentId: 1, reference: "ref-1", amount: 2999, currency: "EUR", method: "cards", description: "100 credits", returnUrl: "https://site.example/payment/1" })) as { redirectUrl: string };
    const ours = Object.fromEntries(new URL(redirectUrl).searchParams);
    expect(ours.signature).toBe(flexpayUrlSignature(key, ours));
    expect(notification(ours)).toBeNull();
  });

  it("refuses a signed set without Verotel's sale or transaction id, or with our order's return URLs", () => {
    const { saleID: _s, ...noSale } = sale;
    const { transactionID: _t, ...noTransaction } = sale;
    expect(notification(signed(noSale))).toBeNull();
    expect(notification(signed(noTransaction))).toBeNull();
    expect(notification(signed({ ...sale, successURL: "https://site.example/payment/1" }))).toBeNull();
    expect(notification(signed({ ...sale, priceAmount: "" }))).toBeNull();
  });

  it("reads a sale's postback as a claim of payment with its amount, currency and ids; a later event claims nothing", () => {
    expect(notification(signed(sale))).toEqual({ reference: "ref-1", status: "paid", amount: 2999, currency: "EUR", eventId: "9123456", providerReference: "433456" });
    expect(notification(signed({ ...sale, event: "credit" }))?.status).toBe("pending");
  });
});

describe("transaction costs (docs/product.md §3 Payment)", () => {
  it("are the fixed part plus the percentage of the price, rounded to the minor unit; none without costs", () => {
    expect(transactionCostsFor({ fixed: 25, percent: 1.4 }, 2999)).toBe(25 + 42);
    expect(transactionCostsFor({ fixed: 0, percent: 2.5 }, 1)).toBe(0);
    expect(transactionCostsFor({ fixed: 0, percent: 50 }, 1)).toBe(1);
    expect(transactionCostsFor({ fixed: 35, percent: 0 }, 14999)).toBe(35);
    expect(transactionCostsFor(null, 2999)).toBe(0);
    expect(transactionCostsFor(undefined, 2999)).toBe(0);
  });
});

describe("a failed payment's retry methods", () => {
  it("are the country's methods the site routes, without the failed one, direct debit and Apple Pay", () => {
    expect(retryMethodsFor("NL", "cards", () => true)).toEqual(["ideal", "paypal", "sct", "paysafecard"]);
    // A site that routes only cards (and direct debit) to its provider offers nothing else after a failed card: no PayPal.
    expect(retryMethodsFor("NL", "cards", (m) => m === "cards" || m === "sdd")).toEqual([]);
    expect(retryMethodsFor("PL", "blik", (m) => m !== "paypal")).toEqual(["prezelewy24", "cards", "paysafecard"]);
  });
});
