/** How a suite reports what it is doing: the command-line tools print it on stderr, tests may ignore it. */
export interface SuiteProgress {
  /** A progress callback for one stage of work (done of total). */
  stage(label: string): (done: number, total: number) => void;
  /** One line about the run (what was indexed, what was written). */
  note(line: string): void;
}

/** Reports nothing. */
export const SILENT_PROGRESS: SuiteProgress = {
  stage: () => () => undefined,
  note: () => undefined,
};
