import { z } from "zod";
import { LinkToken, queryId, text, id } from "./input";
import { UserResponse } from "./user";
import { CompanyInfo } from "./settings";
import { paymentMethodIds, paymentStatuses, sandboxCards, sandboxDebitOutcomes, sandboxOutcomes } from "./payment-methods";

export { sandboxDebitOutcomes };
import { ActiveDiscount, DiscountCodeInput, DiscountRefusal } from "./discounts";

export * from "./payment-methods";
export * from "./offers";
export * from "./discounts";

export const PaymentMethodId = z.enum(paymentMethodIds);
export type PaymentMethodId = z.infer<typeof PaymentMethodId>;

export const PaymentStatus = z.enum(paymentStatuses);
export type PaymentStatus = z.infer<typeof PaymentStatus>;

export const packageMarks = ["most_chosen", "best_value"] as const;
export const PackageMark = z.enum(packageMarks);

/** An ISO 3166 alpha-2 country code, upper-cased. */
export const CountryCode = z
  .string()
  .regex(/^[A-Za-z]{2}$/, "country must be an ISO 3166 alpha-2 code")
  .transform((c) => c.toUpperCase());

/** A credit package: money in integer minor units (cents), never floats. */
export const CreditPackage = z.object({
  id: z.number().int(),
  country: z.string(),
  credits: z.number().int(),
  /** Price in minor units of `currency`. */
  amount: z.number().int(),
  currency: z.string(),
  /** Price per credit in minor units, to 2 decimals (a display ratio, not an amount charged); of `discounted_amount` when set. */
  price_per_credit: z.number(),
  mark: PackageMark.nullable(),
  /** The price with the page's discount (minor units); null when no discount applies to this package. */
  discounted_amount: z.number().int().nullable(),
});
export type CreditPackage = z.infer<typeof CreditPackage>;

export const PaymentMethod = z.object({
  id: PaymentMethodId,
  name: z.string(),
  /** Shown only when the browser says it can pay this way (Apple Pay); hidden without JavaScript. */
  needs_browser_support: z.boolean(),
  /** Paid through our direct debit form (/directdebit) instead of a provider's checkout. */
  mandate_form: z.boolean(),
  /** docs/product.md §3 transaction costs of this method on this site (transactionCostsFor); null: none. */
  transaction_costs: z.object({ fixed: z.number().int(), percent: z.number() }).nullable(),
});
export type PaymentMethod = z.infer<typeof PaymentMethod>;

/** GET /api/packages.php?country=XX: the site's packages and methods for a payment country (docs/product.md §3 paymentCountry). */
export const PackagesQuery = z.object({
  country: CountryCode.optional(),
  package_id: queryId.optional(),
  /** A discount code the member typed; without it a member's automatic discount (time bonus, welcome) applies. */
  code: DiscountCodeInput.optional(),
  with_user: z.literal("1").optional(),
});
export const PackagesResponse = z.object({
  /** The payment country the packages are for: package_id's country; else the asked one if the site serves it, else the IP's, else the site's first. */
  country: z.string(),
  /** Countries the payer can choose (the site's). */
  countries: z.array(z.string()),
  packages: z.array(CreditPackage),
  methods: z.array(PaymentMethod),
  /** The member's last paid order (for /credits/repeat-order), null when none or no member. */
  last_order: z.object({ package_id: z.number().int(), method: PaymentMethodId, credits: z.number().int(), amount: z.number().int(), currency: z.string(), stored_card: z.boolean() }).nullable(),
  refund_days: z.number().int(),
  /** The discount the prices show (the typed code, else the member's time bonus or welcome discount). */
  discount: ActiveDiscount.nullable(),
  /** Why the typed code does not apply (the prices then show the automatic discount, if any). */
  discount_error: DiscountRefusal.nullable(),
  me: UserResponse.optional(),
});
export type PackagesResponse = z.infer<typeof PackagesResponse>;

/** POST /api/payment.php: only a package and a method; the amount is always the server's. */
export const CreatePaymentRequest = z.object({ package_id: id, method: PaymentMethodId, discount_code: DiscountCodeInput.optional() });
export const CreatePaymentResponse = z.object({
  payment_id: z.number().int(),
  /** Where to send the payer: the provider's checkout (absolute) or our page (a path). */
  redirect_url: z.string(),
});
export type CreatePaymentResponse = z.infer<typeof CreatePaymentResponse>;

export const Payment = z.object({
  payment_id: z.number().int(),
  date: z.string(),
  status: PaymentStatus,
  package_id: z.number().int().nullable(),
  credits: z.number().int(),
  amount: z.number().int(),
  transaction_costs: z.number().int(),
  currency: z.string(),
  method: PaymentMethodId,
  country: z.string(),
  /** From a repeat order with a stored card. */
  stored_card: z.boolean(),
  paid_at: z.string().nullable(),
  refunded_at: z.string().nullable(),
  refunded_credits: z.number().int(),
  discount_code: z.string().nullable(),
  /** Minor units off the package's price. */
  discount_amount: z.number().int(),
  /** A direct debit through our form (a mandate): the sandbox's bank settles it on the result page. */
  mandate: z.boolean(),
  /** Taken by the sandbox provider (a test payment). */
  sandbox: z.boolean(),
});
export type Payment = z.infer<typeof Payment>;

export const PaymentQuery = z.object({ id: queryId, with_user: z.literal("1").optional() });
export const PaymentResponse = z.object({
  payment: Payment,
  /**
   * A failed payment's other ways to pay now: the methods the site routes to a provider for the payment's country,
   * without the failed one and those that need our own form or the browser's support (a retry is one button).
   */
  retry_methods: z.array(PaymentMethodId).default([]),
  me: UserResponse.optional(),
});
export type PaymentResponse = z.infer<typeof PaymentResponse>;

export const TransactionsQuery = z.object({ with_user: z.literal("1").optional() });
export const TransactionsResponse = z.object({ transactions: z.array(Payment), me: UserResponse.optional() });
export const TransactionResponse = z.object({ payment: Payment, company: CompanyInfo, site_name: z.string(), refund_days: z.number().int(), me: UserResponse.optional() });
export type TransactionResponse = z.infer<typeof TransactionResponse>;

/** POST /api/repeat-order.php: the last paid package again with the stored method. */
export const RepeatOrderRequest = z.object({}).strict();

/** The sandbox provider's hosted checkout (a test page): its token is the only key. */
export const SandboxOutcome = z.enum(sandboxOutcomes);
export const SandboxCheckoutQuery = z.object({ token: LinkToken });
export const SandboxCheckoutResponse = z.object({
  payment_id: z.number().int(),
  site_name: z.string(),
  description: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  method: PaymentMethodId,
  /** Whether the payer already chose (a second choice changes nothing). */
  decided: z.boolean(),
});
export const SandboxCheckoutRequest = z.object({ token: LinkToken, outcome: SandboxOutcome, card: z.enum(sandboxCards).optional() });
export const SandboxCheckoutDone = z.object({ payment_id: z.number().int() });

/** The sandbox's notification body (signed with X-Sandbox-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">). */
export const SandboxNotification = z.object({
  event_id: text(100),
  reference: LinkToken,
  status: SandboxOutcome,
  amount: z.number().int(),
  currency: text(3),
  card_token: text(100).optional(),
});
export type SandboxNotification = z.infer<typeof SandboxNotification>;

/** GET /api/discountcode.php: `welcome=true` for the welcome discount; `code` (with package_id) checks a code. */
export const DiscountCodeQuery = z.object({ welcome: z.literal("true").optional(), code: DiscountCodeInput.optional(), package_id: queryId.optional() });
export const DiscountCodeResponse = z.object({ discount: ActiveDiscount.nullable(), refusal: DiscountRefusal.nullable() });
export type DiscountCodeResponse = z.infer<typeof DiscountCodeResponse>;

/** POST /api/sandbox-debit.php: the sandbox bank collects (paid), refuses (failed) or returns (bounced) a pending direct debit. */
export const SandboxDebitRequest = z.object({ payment_id: id, outcome: z.enum(sandboxDebitOutcomes) });
