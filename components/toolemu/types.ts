// Shapes the Browse components receive, derived from the query results.
import type { CaseDetail } from "@/lib/toolemu/queries/cases";
import type { ToolkitDetail } from "@/lib/toolemu/queries/toolkits";
import type { TrajectoryDetail } from "@/lib/toolemu/queries/trajectory";

export type ToolDetail = ToolkitDetail["tools"][number];
export type StepDetail = TrajectoryDetail["steps"][number];
export type EvaluationDetail = TrajectoryDetail["evaluations"][number];
export type CaseTrajectory = CaseDetail["trajectories"][number];
