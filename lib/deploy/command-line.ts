/*
 * DEPLOY_COMMAND is split into argv here and started without a shell, so that nothing in it (nor in the webhook's
 * payload, which never reaches the command line) is interpreted by one. The rules are a small, strict subset of
 * POSIX shell words: blanks separate words; '…' keeps everything literally; "…" keeps everything but lets \" and \\
 * escape; a backslash outside quotes escapes the next character. No variables, globs, pipes or redirections:
 * a deploy that needs them names a script, or `/bin/sh -c '…'` explicitly.
 */

export class CommandLineError extends Error {
  override name = "CommandLineError";
}

/** The words of a command line; throws CommandLineError for an unclosed quote, a trailing backslash or no words. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index]!;
    if (quote === "'") {
      if (char === "'") quote = null;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = null;
      else if (char === "\\" && (line[index + 1] === '"' || line[index + 1] === "\\")) word += line[++index];
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === "\\") {
      if (index + 1 >= line.length) throw new CommandLineError("ends with a backslash");
      word += line[++index];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote) throw new CommandLineError(`has an unclosed ${quote}`);
  if (inWord) words.push(word);
  if (words.length === 0) throw new CommandLineError("is empty");
  return words;
}
