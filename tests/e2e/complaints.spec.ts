import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "./fixtures";

/** The /complaints page (JavaScript on and off): a complaint answered with its reference and mailed to support; a refused field; the US footer. */

test("a complaint gets a reference number and reaches support; a wrong field says what to fix", { tag: "@nojs" }, async ({ page }) => {
  await page.goto("/");
  await page.getByRole("contentinfo").getByRole("link", { name: "Complaints" }).click();
  await expect(page.getByTestId("complaints-page")).toBeVisible();
  await page.getByTestId("complaint-name").fill("Jane Doe");
  await page.getByTestId("complaint-email").fill("jane@example");
  await page.getByTestId("complaint-content_url").fill("/members/12");
  await page.getByTestId("complaint-reason").selectOption("impersonation");
  const message = `Uses my photos without consent (${test.info().project.name} ${Date.now()}).`;
  await page.getByTestId("complaint-message").fill(message);
  await page.getByTestId("complaint-send").click();
  await expect(page.getByTestId("complaint-email-error")).toHaveText("Enter a valid e-mail address so we can answer you.");
  await expect(page.getByTestId("complaint-message")).toHaveValue(message);
  await page.getByTestId("complaint-email").fill("jane@example.com");
  await page.getByTestId("complaint-send").click();
  const sent = page.getByTestId("complaint-sent");
  await expect(sent).toContainText("Thank you. We have received your complaint; its reference number is C-");
  const reference = /C-[2-9A-HJ-NP-Z]{8}/.exec((await sent.textContent()) ?? "")![0];
  const dir = path.join(process.env.E2E_DATA_DIR!, "mail");
  await expect
    .poll(async () => {
      for (const file of (await readdir(dir)).filter((f) => f.includes("-complaint-"))) {
        const mail = await readFile(path.join(dir, file), "utf8");
        if (mail.includes(reference)) return /^To: (.*)$/m.exec(mail)?.[1];
      }
      return null;
    })
    .toBe("support@rendezvous.example");
});

test("the US footer shows the 2257 statement and the records custodian in English only", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByTestId("us-footer").getByRole("link")).toHaveAttribute("href", "/pages/2257-compliance-statement");
  await expect(page.getByTestId("us-custodian")).toContainText("Custodian of records (18 U.S.C. 2257): Rendezvous Media B.V.");
  await page.goto("/de");
  await expect(page.getByRole("contentinfo")).toBeVisible();
  await expect(page.getByTestId("us-footer")).toHaveCount(0);
});
