// Authoring of toolkits and test cases (issue 17 point 2): validate with the importer's schemas,
// write a new version in one audited transaction, read the history and diff two versions.
// lib/authoring (the LM generators' review queue) calls createToolkit / createCase on accept.
export { validateCase, validateToolkitSpec, SpecInvalid, formatSpecIssue, type SpecIssue, type Validation } from "./validate";
export { createToolkit, updateToolkit, type AuthoredProvenance, type CreateOptions, type UpdateOptions } from "./write-toolkit";
export { createCase, updateCase } from "./write-case";
export type { DbOrTx } from "./transaction";
export { diffSpecs, type DiffEntry } from "./diff";
export { caseHistory, caseVersionContent, diffCaseVersions, diffToolkitVersions, toolkitHistory, toolkitVersionSpec, type VersionRow } from "./history";
