import { useTranslation } from "react-i18next";
import { useNonce } from "./nonce";

const elementId = "i18n-resources";

/**
 * The active locale's client namespaces as JSON in the document, so the first render in the browser
 * has its strings without another request. Only this locale reaches the browser.
 */
export function InlineTranslations({ namespaces }: { namespaces: readonly string[] }) {
  const { i18n } = useTranslation();
  const nonce = useNonce();
  const data: Record<string, unknown> = {};
  for (const ns of namespaces) data[ns] = i18n.getResourceBundle(i18n.language, ns) ?? {};
  const json = JSON.stringify(data).replace(/</g, "\\u003c");
  return <script id={elementId} type="application/json" nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: json }} />;
}

export function readInlineTranslations(): Record<string, Record<string, unknown>> {
  const text = document.getElementById(elementId)?.textContent;
  return text ? (JSON.parse(text) as Record<string, Record<string, unknown>>) : {};
}
