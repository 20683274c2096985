// Shapes the Browse components receive, derived from the query results.
import type { CaseDetail, ToolkitDetail, TrajectoryDetail } from "@/lib/toolemu/queries";

export type ToolDetail = ToolkitDetail["tools"][number];
export type StepDetail = TrajectoryDetail["steps"][number];
export type EvaluationDetail = TrajectoryDetail["evaluations"][number];
export type CaseTrajectory = CaseDetail["trajectories"][number];
