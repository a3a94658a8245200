import { z } from "zod";
import { Email, text } from "./input";
import { complaintReasons } from "./complaint-reasons";

/*
 * /complaints (docs/product.md §2 route table; footer link):
 *   POST /api/complaints.php   ComplaintRequest -> ComplaintResponse: stored, mailed to the site's support_email,
 *                              answered with a reference number. Visitors and members; limited per client.
 */

export { complaintReasons } from "./complaint-reasons";

/** The address of the content: an http(s) URL, or a path on the site. */
export const ContentAddress = text(500, { min: 1 }).refine((v) => /^(https?:\/\/[^\s]+|\/[^\s]*)$/i.test(v), "url");

export const ComplaintRequest = z.object({
  name: text(80, { min: 2 }),
  email: Email,
  content_url: ContentAddress,
  reason: z.enum(complaintReasons),
  message: text(5000, { min: 10, multiline: true }),
});
export type ComplaintRequest = z.infer<typeof ComplaintRequest>;

export const ComplaintResponse = z.object({ reference: z.string() });
