// Kept for the files that import the teams helpers from here; they live in tests/helpers/teams.ts.
export * from "../helpers/teams";
