import { z } from "zod";
import { MainImage } from "./user";

export const MemberCard = z.object({
  id: z.number().int(),
  name: z.string(),
  age: z.number().int(),
  city: z.string().nullable(),
  country: z.string(),
  main_image: MainImage.nullable(),
});
export type MemberCard = z.infer<typeof MemberCard>;

export const membersPageSize = 20;

export const MembersQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

export const MembersResponse = z.object({
  pageNumber: z.number().int(),
  pageSize: z.number().int(),
  numResults: z.number().int(),
  results: z.array(MemberCard),
});
export type MembersResponse = z.infer<typeof MembersResponse>;
