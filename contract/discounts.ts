import { z } from "zod";
import { discountKinds, discountRefusalReasons } from "./offers";
import { paymentMethodIds } from "./payment-methods";

/** A code as a member types it: letters, digits and dashes, any case (compared in upper case). */
export const DiscountCodeInput = z
  .string()
  .trim()
  .max(40)
  .regex(/^[A-Za-z0-9_-]*$/, "Code not found")
  .transform((c) => c.toUpperCase());

/** docs/product.md §3 Discount code (and its time bonus variant): the discount a member gets. */
export const ActiveDiscount = z.object({
  kind: z.enum(discountKinds),
  code: z.string(),
  value_percentage: z.number().int(),
  /** When it ends (ISO); null: no end. */
  expires: z.string().nullable(),
  /** Minor units of `currency` (or of the package's currency when null); 0: none. */
  minimum_order_value: z.number().int(),
  currency: z.string().nullable(),
  country: z.string().nullable(),
});
export type ActiveDiscount = z.infer<typeof ActiveDiscount>;

/** Why a code was refused, with what the message needs. */
export const DiscountRefusal = z.object({
  reason: z.enum(discountRefusalReasons),
  code: z.string(),
  minimum_order_value: z.number().int().optional(),
  currency: z.string().optional(),
  country: z.string().optional(),
  method: z.enum(paymentMethodIds).optional(),
});
export type DiscountRefusal = z.infer<typeof DiscountRefusal>;

