// Bad bytes in query parameters are refused up front, naming the parameter, by every filter parser.
import { describe, expect, it } from "vitest";
import { parseDashboardFilter } from "@/lib/dashboards/filters";
import { parseCaseFilter, parseSearchQuery, parseTrajectoryFilter } from "@/lib/toolemu/filters";
import { AppError } from "@/lib/errors";
import { BadQueryParamError, badQueryParamBody, findBadQueryParam, queryTextProblem } from "./query-params";

const url = (q: string) => new URL(`http://localhost/x?${q}`);

describe("query parameter bytes", () => {
  it("finds NUL, invalid UTF-8 and control characters as the URL parser decodes them", () => {
    expect(findBadQueryParam(url("agent=a%00b").searchParams)).toEqual({ param: "agent", problem: "contains a NUL byte (%00)" });
    expect(findBadQueryParam(url("mode=STANDARD&case=%FF%FE").searchParams)).toEqual({ param: "case", problem: "is not valid UTF-8 text" });
    expect(findBadQueryParam(url("q=%C3%28").searchParams)?.param).toBe("q"); // truncated 2-byte sequence
    expect(findBadQueryParam(url("q=%1B%5B31m").searchParams)).toEqual({ param: "q", problem: "contains a control character" });
    expect(findBadQueryParam(url("a%00=1").searchParams)).toEqual({ param: "a\\u0000", problem: "its name contains a NUL byte (%00)" });
    expect(findBadQueryParam({ toolkit: ["ok", "\uD800"] })).toEqual({ param: "toolkit", problem: "is not valid UTF-8 text" });
    // Real text passes: non-ASCII, emoji, a tab or newline pasted along with a value.
    expect(findBadQueryParam(url("agent=Qwen%2FQwen2.5-7B&case=caf%C3%A9%20%F0%9F%98%80&q=a%09b%0Ac").searchParams)).toBeNull();
    expect(queryTextProblem("Grüße 👋")).toBeNull();
  });

  it("every filter parser throws a 400 naming the parameter; clean input parses as before", () => {
    const parsers = [parseTrajectoryFilter, parseDashboardFilter, parseCaseFilter, parseSearchQuery];
    for (const parse of parsers) {
      for (const input of [url("agent=x%00y").searchParams, { q: "%", agent: "x\u0000y" }]) {
        const err = (() => {
          try {
            parse(input);
          } catch (e) {
            return e;
          }
        })();
        expect(err, parse.name).toBeInstanceOf(BadQueryParamError);
        expect(err).toBeInstanceOf(AppError);
        expect((err as AppError).status).toBe(400);
        expect((err as AppError).message).toBe('Query parameter "agent" contains a NUL byte (%00); remove it from the URL or retype the value.');
      }
    }
    expect(parseTrajectoryFilter(url("agent=A&safety=2&sort=oldest").searchParams)).toEqual({ agent: "A", safety: 2, sort: "oldest", page: 1 });
    expect(parseDashboardFilter({ agent: "A", seed: "7" })).toMatchObject({ agent: "A", seed: 7 });
    expect(parseCaseFilter({ q: "email" })).toEqual({ q: "email", page: 1 });
  });

  it("gives the request proxy a 400 body naming the parameter", () => {
    expect(badQueryParamBody(url("agent=A").searchParams)).toBeNull();
    expect(badQueryParamBody(url("evaluator=%FF").searchParams)).toEqual({
      error: 'Query parameter "evaluator" is not valid UTF-8 text; remove it from the URL or retype the value.',
      fieldErrors: { evaluator: ['Query parameter "evaluator" is not valid UTF-8 text; remove it from the URL or retype the value.'] },
    });
  });
});
