export function compressAssets(folder: string): number;
