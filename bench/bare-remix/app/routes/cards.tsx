import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { BareLoadContext } from "../context";

export const meta: MetaFunction = () => [{ title: "Members" }];

/** 20 members from the database of this process (PGlite, or PostgreSQL with DATABASE_URL). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const page = Math.max(1, Math.min(10, Number(new URL(request.url).searchParams.get("page")) || 1));
  const members = await (context as unknown as BareLoadContext).members(20, (page - 1) * 20);
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
