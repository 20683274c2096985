// The filter bar shared by the human-label panels (agreement, failures, emulator quality):
// campaign first, then (where the panel compares with one) the evaluator, then the usual filters.
import { shortModel } from "@/components/toolemu/format";
import { FilterBar } from "@/components/dashboards/filter-bar";
import type { DashboardFilter } from "@/lib/dashboards/filters";
import type { HumanPanelBase } from "@/lib/dashboards/human/panels";

export function HumanFilterBar({ path, filter, panel, evaluatorLabel }: { path: string; filter: DashboardFilter; panel: HumanPanelBase; evaluatorLabel?: string }) {
  const { options, defaultCampaign, scope } = panel;
  const campaign = defaultCampaign ? `Default: ${defaultCampaign.name}` : "Most recent with labels";
  if (!evaluatorLabel) {
    return (
      <FilterBar path={path} filter={filter} fields={["campaign", "agent", "mode", "toolkit", "ties", "seed"]}
        options={{ campaigns: options.campaigns, agents: options.agents, toolkits: options.toolkits }}
        placeholders={{ campaign }} />
    );
  }
  return (
    <FilterBar path={path} filter={filter} fields={["campaign", "evaluator", "agent", "mode", "toolkit", "ties", "seed"]}
      options={{ campaigns: options.campaigns, evaluators: options.evaluators, agents: options.agents, toolkits: options.toolkits }}
      labels={{ evaluator: evaluatorLabel }}
      placeholders={{ campaign, evaluator: scope?.evaluator && scope.evaluatorDefaulted ? `Default: ${shortModel(scope.evaluator)}` : "Default" }} />
  );
}
