import type { APIRequestContext, Page } from "@playwright/test";
import { expect, readLocale, test, text, sameOrigin } from "./fixtures";
import { mailLink, newAccountDetails, signUp, type TestAccount } from "./accounts-support";

/**
 * Discovery: /swipe-game (4 likes a day) and /match-finder (no limit), one member at a time.
 * Every test signs up members of its own, so the daily likes and decisions start from nothing.
 */
const common = readLocale("en");
if (!common) throw new Error("locales/en/common.json is missing");
const limitMessage = text(common, "errors.swipe_limit_reached").replace("{{limit}}", "4");

function card(page: Page) {
  return page.getByTestId("discovery-card");
}

async function cardId(page: Page): Promise<string> {
  await expect(card(page)).toBeVisible();
  return (await card(page).getAttribute("data-member-id")) ?? "";
}

/** Waits until a card other than `previous` shows and returns its id. */
async function expectNextCard(page: Page, previous: string): Promise<string> {
  await expect(card(page)).not.toHaveAttribute("data-member-id", previous);
  return cardId(page);
}

async function activate(request: APIRequestContext, account: TestAccount): Promise<void> {
  const response = await request.get(await mailLink(account.email, "activation"));
  expect(new URL(response.url()).pathname).toBe("/activate/done");
}

test.describe("swipe game", () => {
  test("a new member passes, likes 4 members, then sees the limit and no Like button; passing goes on", { tag: "@nojs" }, async ({ page }) => {
    await signUp(page.request);
    await page.goto("/swipe-game");
    await expect(page.getByRole("heading", { level: 1, name: "Swipe game" })).toBeVisible();
    const likesLeft = page.getByTestId("likes-left");
    await expect(likesLeft).toHaveText("Likes left today: 4");

    let id = await cardId(page);
    await page.getByRole("button", { name: "Pass" }).click();
    id = await expectNextCard(page, id);
    await expect(likesLeft).toHaveText("Likes left today: 4");

    for (const left of [3, 2, 1, 0]) {
      await page.getByRole("button", { name: "Like" }).click();
      id = await expectNextCard(page, id);
      await expect(likesLeft).toHaveText(`Likes left today: ${left}`);
    }

    const limit = page.getByTestId("swipe-limit");
    await expect(limit).toContainText(limitMessage);
    await expect(limit.getByRole("link", { name: "Open the match finder" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Like" })).toHaveCount(0);
    await page.getByRole("button", { name: "Pass" }).click();
    await expectNextCard(page, id);
    await expect(likesLeft).toHaveText("Likes left today: 0");

    // The limit is the swipe game's: the match finder still offers Like.
    await limit.getByRole("link", { name: "Open the match finder" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Match finder" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Like" })).toBeVisible();
    await expect(page.getByTestId("likes-left")).toHaveCount(0);
  });

  test("a visitor is sent to log in", async ({ page }) => {
    await page.goto("/swipe-game");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fswipe-game$/);
  });
});

test.describe("match finder", () => {
  test("like and pass move to the next member; liking someone who liked you shows the match", { tag: "@nojs" }, async ({ page, browser }) => {
    const viewer = await signUp(page.request);
    await activate(page.request, viewer);
    const me = (await (await page.request.get("/api/user.php")).json()) as { user: { profile: { id: number } } };

    // Another new member (a woman, so she fits the viewer) likes the viewer first; a newer one, the decoy, comes before her.
    const others = await browser.newContext();
    try {
      const signUpWoman = async () => {
        const account = newAccountDetails();
        const signup = await others.request.post("/api/signup.php", {
          headers: sameOrigin,
          data: { email: account.email, name: account.name, date_of_birth: "1992-03-04", password: account.password, gender: "female", language: "en" },
        });
        expect(signup.status(), await signup.text()).toBe(201);
        await activate(others.request, account);
        return account;
      };
      const admirer = await signUpWoman();
      const like = await others.request.post("/api/discovery.php", { headers: sameOrigin, data: { game: "match_finder", id: me.user.profile.id, decision: "like" } });
      expect(like.status(), await like.text()).toBe(200);
      await signUpWoman();

      await page.goto("/match-finder");
      await expect(page.getByRole("heading", { level: 1, name: "Match finder" })).toBeVisible();
      let id = await cardId(page);
      const nameOnCard = () => page.getByTestId("discovery-name").innerText();
      // Newest members come first: the decoy (and members other tests sign up meanwhile) before the admirer.
      // The first is liked, the others passed; neither is a match.
      for (let i = 0; i < 40 && !(await nameOnCard()).startsWith(`${admirer.name},`); i++) {
        await page.getByRole("button", { name: i === 0 ? "Like" : "Pass" }).click();
        id = await expectNextCard(page, id);
        await expect(page.getByTestId("match-modal")).toHaveCount(0);
      }
      await expect(page.getByTestId("discovery-name")).toContainText(admirer.name);
      await page.getByRole("button", { name: "Like" }).click();
      const notice = page.getByTestId("match-modal");
      await expect(notice.getByRole("heading", { name: "It's a match!" })).toBeVisible();
      await expect(notice).toContainText(`You and ${admirer.name} like each other.`);
      await expect(notice.getByRole("link", { name: "View profile" })).toHaveAttribute("href", `/members/${id}`);
      await notice.getByRole("link", { name: "Keep going" }).click();
      await expect(notice).toHaveCount(0);
      id = await expectNextCard(page, id);
      await page.getByRole("button", { name: "Pass" }).click();
      await expectNextCard(page, id);
    } finally {
      await others.close();
    }
  });
});

test.describe("gestures", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "dragging and arrow keys need JavaScript");

  test("dragging the card right likes, a short drag springs back, the left arrow key passes", async ({ page }) => {
    await signUp(page.request);
    await page.goto("/swipe-game");
    const likesLeft = page.getByTestId("likes-left");
    await expect(likesLeft).toHaveText("Likes left today: 4");
    await expect(page.getByText("Drag the card to the right to like")).toBeVisible();

    const drag = async (distance: number) => {
      const box = await card(page).boundingBox();
      if (!box) throw new Error("the card has no box");
      const x = box.x + box.width / 2;
      const y = box.y + box.height / 3;
      await page.mouse.move(x, y);
      await page.mouse.down();
      await page.mouse.move(x + distance / 2, y, { steps: 5 });
      await page.mouse.move(x + distance, y, { steps: 5 });
      await page.mouse.up();
    };

    let id = await cardId(page);
    await drag(40);
    await expect(card(page)).toHaveAttribute("data-member-id", id);
    await expect(likesLeft).toHaveText("Likes left today: 4");

    await drag(220);
    id = await expectNextCard(page, id);
    await expect(likesLeft).toHaveText("Likes left today: 3");

    await page.keyboard.press("ArrowLeft");
    id = await expectNextCard(page, id);
    await expect(likesLeft).toHaveText("Likes left today: 3");

    await page.keyboard.press("ArrowRight");
    await expectNextCard(page, id);
    await expect(likesLeft).toHaveText("Likes left today: 2");
  });
});
