import { describe, expect, test } from "vitest";
import { splitCommandLine } from "./command-line";

describe("splitCommandLine", () => {
  test("splits on blanks and keeps quoted text as one word", () => {
    expect(splitCommandLine("  /srv/deploy.sh   --ref main ")).toEqual(["/srv/deploy.sh", "--ref", "main"]);
    expect(splitCommandLine(`/bin/sh -c 'git pull && npm ci'`)).toEqual(["/bin/sh", "-c", "git pull && npm ci"]);
    expect(splitCommandLine(`echo "a \\"quoted\\" word" ''`)).toEqual(["echo", 'a "quoted" word', ""]);
    expect(splitCommandLine(`echo a\\ b "c"d`)).toEqual(["echo", "a b", "cd"]);
  });

  test("leaves shell syntax as plain words (no shell runs it)", () => {
    expect(splitCommandLine("echo $HOME; rm -rf / | cat > x")).toEqual([
      "echo",
      "$HOME;",
      "rm",
      "-rf",
      "/",
      "|",
      "cat",
      ">",
      "x",
    ]);
  });

  test("refuses unclosed quotes, a trailing backslash and an empty line", () => {
    expect(() => splitCommandLine("echo 'open")).toThrow(/unclosed '/);
    expect(() => splitCommandLine('echo "open')).toThrow(/unclosed "/);
    expect(() => splitCommandLine("echo \\")).toThrow(/backslash/);
    expect(() => splitCommandLine("   ")).toThrow(/empty/);
  });
});
