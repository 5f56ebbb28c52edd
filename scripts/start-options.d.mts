/** Types of scripts/start-options.mjs (plain JavaScript, so that `npm start` needs no TypeScript). */
export declare const MAX_PROCESSES: number;
export declare class StartOptionError extends Error {
  readonly variable: string;
  constructor(variable: string, message: string);
}
type Env = Record<string, string | undefined>;
export declare function parseProcesses(env: Env): number;
export declare function parseCompress(env: Env): boolean;
export declare function startOptions(env: Env): { processes: number; compress: boolean };
