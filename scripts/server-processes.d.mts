/** Types of scripts/server-processes.mjs (plain JavaScript, so that `npm start` needs no TypeScript). */
export declare function restartDelayMs(recentExits: number): number;
export declare function runServerProcesses(count: number): void;
