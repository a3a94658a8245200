import { data, type ServerBuild } from "@remix-run/node";

type RouteModule = ServerBuild["routes"][string]["module"];
const guarded = new WeakMap<ServerBuild, ServerBuild>();

/** undici's words when a body is not the form it claims to be (a broken multipart, a wrong type). */
function isUnreadableForm(error: unknown): boolean {
  return error instanceof TypeError && /FormData|Content-Type was not one of/.test(error.message);
}

function guardAction(action: NonNullable<RouteModule["action"]>): RouteModule["action"] {
  return async (args) => {
    try {
      return await action(args);
    } catch (error) {
      // A client's malformed body is a 400 for every action, present and future, not a 500.
      if (isUnreadableForm(error)) throw data({ refusal: "unreadable_form" }, { status: 400 });
      throw error;
    }
  };
}

/** The build with every route action wrapped once, so a route added later gets the same answer. */
export function guardActions(build: ServerBuild): ServerBuild {
  const known = guarded.get(build);
  if (known) return known;
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    const action = route.module.action;
    routes[id] = action ? { ...route, module: { ...route.module, action: guardAction(action) } } : route;
  }
  const result = { ...build, routes };
  guarded.set(build, result);
  return result;
}
