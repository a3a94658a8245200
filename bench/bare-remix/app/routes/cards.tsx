import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { BareLoadContext } from "../context";

export const meta: MetaFunction = () => [{ title: "Members" }];

/**
 * 20 members from the database of this process (PGlite, or PostgreSQL with DATABASE_URL); `?cards=` asks for another
 * number (1-100), for a bare page as large as one of the app's (docs/performance-history.md).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const page = Math.max(1, Math.min(10, Number(params.get("page")) || 1));
  const cards = Math.max(1, Math.min(100, Math.round(Number(params.get("cards"))) || 20));
  const members = await (context as unknown as BareLoadContext).members(cards, (page - 1) * cards);
  return { members, page };
}

export default function Cards() {
  const { members, page } = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>Members</h1>
      <div className="grid">
        {members.map((member) => (
          <Link key={member.id} to={`/members/${member.id}`} className="card">
            <img src={`/photos/${member.id}.webp`} alt={member.name} loading="lazy" width={240} height={240} />
            <div>
              <p>
                <strong>{member.name}</strong>, {member.age}
              </p>
              <p className="muted">{member.city}</p>
              <p className="muted">{member.about}</p>
            </div>
          </Link>
        ))}
      </div>
      <Link to={`/?page=${page + 1}`}>Next</Link>
    </main>
  );
}
