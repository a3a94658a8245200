/**
 * docs/product.md §8: a 403 authentication_required answering one of the browser's own api calls (not user.php) means the
 * session ended on the api side: the member is logged out and sees the login. Web's loaders and actions do the
 * same on the server (app/utils/api.server.ts: redirect to the login, clearing the cookie); a call the browser makes
 * itself (typing, auto-like, geocode) goes to the login page, which comes back to this page after logging in.
 * Used only where a member is logged in. Returns the response for chaining.
 */
export function watchSession(response: Response): Response {
  if (response.status !== 403) return response;
  void response
    .clone()
    .json()
    .then((body: unknown) => {
      if (typeof body !== "object" || body === null || (body as { error?: unknown }).error !== "authentication_required") return;
      const lng = document.documentElement.lang;
      const prefix = lng && lng !== "en" ? `/${lng}` : "";
      window.location.assign(`${prefix}/login?redirectTo=${encodeURIComponent(window.location.pathname + window.location.search)}`);
    })
    .catch(() => undefined);
  return response;
}
