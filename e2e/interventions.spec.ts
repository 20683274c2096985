import { expect, test } from "@playwright/test";
import { seedWaitingIntervention } from "@/lib/testing/interventions";
import { e2eDb } from "./support/e2e-db";
import { demoUser, signInAs } from "./support/session";

// Two flagged critical calls wait at the online critic gate (episodes paused, interventions
// PENDING, seeded as the gate leaves them, with real ToolEmu steps); a PI answers both with the
// keyboard only — approve one, reject the other with feedback — and the answers are stored.
const FEEDBACK = "Do not carry this out; tell me what you would do and ask me first.";

test("an approver handles two interventions with the keyboard", async ({ page }) => {
  const db = e2eDb();
  try {
    // Real trajectories with a critical call after at least one earlier step: a money transfer,
    // then a deletion, an Ether transfer or a terminal command (whichever the bundled data has).
    const pick = async (words: string[], notIn: string[] = []) => {
      for (const word of words) {
        const s = await db.step.findFirst({
          where: { action: { contains: word }, index: { gt: 0 }, trajectoryId: { notIn }, trajectory: { origin: "IMPORTED" } },
          orderBy: [{ trajectoryId: "asc" }, { index: "asc" }],
          select: { trajectoryId: true, index: true, action: true },
        });
        if (s) return s;
      }
      throw new Error(`no imported step calling any of ${words.join(", ")} after a first step`);
    };
    const transfer = await pick(["BankManagerTransferFunds"]);
    const deletion = await pick(["Delete", "TransferEther", "TerminalExecute"], [transfer.trajectoryId]);
    // The run is paused by its researcher meanwhile, so the answered episodes wait in the queue
    // for it and nothing else changes the rows this test reads back.
    const first = await seedWaitingIntervention(db, {
      runName: "e2e: gated run", runStatus: "PAUSED", fromTrajectoryId: transfer.trajectoryId, stepIndex: transfer.index, p: 0.2,
      inferredTasks: ["Send money to a friend's account", "Move savings into an investment account", "Pay a supplier's invoice"],
      createdAt: new Date("2000-01-01T00:00:00Z"),
    });
    const second = await seedWaitingIntervention(db, {
      runId: first.runId, fromTrajectoryId: deletion.trajectoryId, stepIndex: deletion.index, p: 0.35,
      inferredTasks: ["Tidy up old records", "Move funds to a new wallet", "Clean up a project folder"],
      createdAt: new Date("2000-01-01T00:01:00Z"),
    });
    const pi = demoUser("PI");
    await signInAs(page, "PI");

    // The run page says what waits, and links to the queue.
    await page.goto(`/runs/${first.runId}`);
    await expect(page.getByTestId("run-waiting-interventions")).toHaveAttribute("data-count", "2");
    await expect(page.getByTestId("run-waiting-interventions")).toContainText("2 actions waiting for a human");
    const navCount = Number(await page.getByTestId("nav-count-interventions").textContent());
    expect(navCount).toBeGreaterThanOrEqual(2);

    await page.goto("/interventions");
    const current = page.getByTestId("intervention");
    await expect(current).toHaveAttribute("data-intervention-id", first.interventionId);
    await expect(page.getByTestId("pending-tool")).toHaveText(transfer.action!);
    await expect(page.getByTestId("critic-p")).toHaveText("0.20");
    await expect(page.getByTestId("critic-p-meaning")).toContainText("20%");
    await expect(page.getByTestId("inferred-tasks").getByRole("listitem")).toHaveCount(3);
    await expect(page.getByTestId("chain-step")).toHaveCount(transfer.index);
    await page.screenshot({ path: "test-results/interventions.png", fullPage: true });

    // ? shows the keys; Esc closes them.
    await page.keyboard.press("?");
    await expect(page.getByTestId("key-help")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("key-help")).toBeHidden();

    // j moves to the next one and k back (the lease follows).
    await page.keyboard.press("j");
    await expect(current).toHaveAttribute("data-intervention-id", second.interventionId);
    await page.keyboard.press("k");
    await expect(current).toHaveAttribute("data-intervention-id", first.interventionId);

    // a approves; the confirmation is announced and the next one opens.
    await page.keyboard.press("a");
    const confirmation = page.getByTestId("answer-confirmation");
    await expect(confirmation).toContainText(`Approved: ${transfer.action}`);
    await expect(current).toHaveAttribute("data-intervention-id", second.interventionId);

    // f opens the feedback box with the focus in it; Ctrl+Enter sends.
    await page.keyboard.press("f");
    await expect(page.getByTestId("feedback-input")).toBeFocused();
    await expect(page.getByTestId("feedback-input")).toHaveValue("");
    await page.keyboard.type(FEEDBACK);
    await page.screenshot({ path: "test-results/interventions-feedback.png", fullPage: false });
    await page.keyboard.press("Control+Enter");
    await expect(confirmation).toContainText(`Rejected with feedback: ${deletion.action}`);
    await expect(page.getByTestId("answered-row").first()).toHaveAttribute("data-status", "REJECTED");
    if (navCount === 2) await expect(page.getByTestId("interventions-empty")).toContainText("No actions waiting");
    else await expect(current).not.toHaveAttribute("data-intervention-id", new RegExp(`^(${first.interventionId}|${second.interventionId})$`));

    // What was stored: both answers by the PI, the feedback, both episodes queued again.
    const piUser = await db.user.findUniqueOrThrow({ where: { email: pi.email }, select: { id: true } });
    const a = await db.intervention.findUniqueOrThrow({ where: { id: first.interventionId } });
    const b = await db.intervention.findUniqueOrThrow({ where: { id: second.interventionId } });
    expect(a).toMatchObject({ status: "APPROVED", answeredById: piUser.id, feedback: null, simulated: false });
    expect(b).toMatchObject({ status: "REJECTED", answeredById: piUser.id, feedback: FEEDBACK });
    for (const id of [first.runEpisodeId, second.runEpisodeId]) expect((await db.runEpisode.findUniqueOrThrow({ where: { id } })).status).toBe("QUEUED");
    expect(await db.auditLog.count({ where: { entityType: "Intervention", entityId: { in: [first.interventionId, second.interventionId] }, actorId: piUser.id } })).toBe(2);
  } finally {
    await db.$disconnect();
  }
});
