import { useActionData, useLocation } from "@remix-run/react";
import { useState } from "react";

/**
 * A key for a form that mounts again, empty or with the saved values, after each completed submit (a redirect: a new
 * location and no action data), but not after a refused one: the action's answer is a new location too, and a form
 * mounted again then would lose what the member has begun to type again.
 */
export function useFormMountKey(): string {
  const { key } = useLocation();
  const refused = useActionData() !== undefined;
  const [mountKey, setMountKey] = useState(key);
  if (!refused && mountKey !== key) setMountKey(key);
  return mountKey;
}
