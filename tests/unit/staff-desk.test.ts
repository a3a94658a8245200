import { describe, expect, it } from "vitest";
import { fillSavedReply, waitedText, waitLevel } from "~/features/staff/desk";

const texts = { minutes: "{{n}} min", hours: "{{h}} h {{m}} min", days: "{{n}} d" };
const now = Date.parse("2026-12-07T12:00:00Z");
const ago = (minutes: number) => new Date(now - minutes * 60_000).toISOString();

describe("the desk's waiting times", () => {
  it("reads a wait in minutes, hours and days", () => {
    expect(waitedText(texts, ago(0), now)).toBe("0 min");
    expect(waitedText(texts, ago(14.9), now)).toBe("14 min");
    expect(waitedText(texts, ago(125), now)).toBe("2 h 5 min");
    expect(waitedText(texts, ago(3 * 24 * 60 + 5), now)).toBe("3 d");
    // A clock a little ahead of the server's never shows a negative wait.
    expect(waitedText(texts, new Date(now + 30_000).toISOString(), now)).toBe("0 min");
  });

  it("marks a wait past the site's thresholds", () => {
    const thresholds = { warn_minutes: 15, late_minutes: 60 };
    expect(waitLevel(ago(14), now, thresholds)).toBe("ok");
    expect(waitLevel(ago(15), now, thresholds)).toBe("warn");
    expect(waitLevel(ago(60), now, thresholds)).toBe("late");
    expect(waitLevel(ago(600), now, undefined)).toBe("ok");
  });
});

describe("saved replies", () => {
  it("fill {member} and {profile}, every time they appear, and leave other braces alone", () => {
    expect(fillSavedReply("Hi {member}! {profile} here. {member}, {other}?", { member: "Dennis", profile: "Fern" })).toBe("Hi Dennis! Fern here. Dennis, {other}?");
  });
});
