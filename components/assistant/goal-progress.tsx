import { useId } from "react";

/** A goal's progress as a labelled bar (0-100) with its words beside it. */
export function GoalProgress({ title, progress, children }: { title: string; progress: number; children: React.ReactNode }) {
  const id = useId();
  return (
    <li className="goal">
      <span id={id} className="goal-title" dir="auto">
        {title}
      </span>
      <progress className="goal-bar" max={100} value={progress} aria-labelledby={id} />
      <span className="goal-words">{children}</span>
    </li>
  );
}
