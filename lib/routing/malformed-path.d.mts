// Types of malformed-path.mjs (plain JavaScript, imported by next.config.mjs).
export declare const MALFORMED_REST: string;
export declare function hasMalformedEncoding(path: string): boolean;
export declare const MALFORMED_PATH_REWRITES: { source: string; destination: string }[];
