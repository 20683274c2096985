"use client";

import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";

type ReplayAction = (input: { trajectoryId: string; loopMode?: "TOOLEMU" | "STRICT" }) => Promise<{ ok: true; data: { trajectoryId: string } } | { ok: false; error: string }>;

/**
 * Replays an imported trajectory through our engine (the replay endpoint answers every call with
 * the recorded outputs) and opens the episode, which compares itself with the recording.
 */
export function ReplayButton({ trajectoryId, action }: { trajectoryId: string; action: ReplayAction }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [loopMode, setLoopMode] = useState<"TOOLEMU" | "STRICT">("TOOLEMU");
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex items-center gap-2">
        <label className="text-xs text-slate-500">
          Loop rules{" "}
          <select value={loopMode} onChange={(e) => setLoopMode(e.target.value as "TOOLEMU" | "STRICT")} className="rounded border border-slate-300 px-1 py-0.5 text-xs" data-testid="replay-loop-mode">
            <option value="TOOLEMU">ToolEmu-compatible</option>
            <option value="STRICT">strict</option>
          </select>
        </label>
        <button
          type="button"
          disabled={pending}
          onClick={() =>
            start(async () => {
              setError(null);
              const res = await action({ trajectoryId, loopMode });
              if (res.ok) router.push(`/playground/${res.data.trajectoryId}`);
              else setError(res.error);
            })
          }
          className="rounded-md border border-indigo-300 bg-white px-3 py-1.5 text-sm font-medium text-indigo-700 hover:bg-indigo-50 disabled:opacity-50"
          data-testid="replay-trajectory"
          title="Re-run this trajectory through our engine with its recorded model outputs, and see whether it comes out the same"
        >
          {pending ? "Starting replay…" : "Replay through the engine"}
        </button>
      </div>
      {error && <p role="alert" className="text-xs text-rose-700">{error}</p>}
    </div>
  );
}
