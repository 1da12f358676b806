"use client";
// Hands the studio store to the components below it; each reads just the slice it renders.
import { createContext, type ReactNode, useContext } from "react";
import { useStore } from "zustand";
import type { StudioState, StudioStore } from "@/lib/studio/studio-store";

const StudioStoreContext = createContext<StudioStore | null>(null);

export function StudioStoreProvider({ store, children }: { store: StudioStore; children: ReactNode }) {
  return <StudioStoreContext.Provider value={store}>{children}</StudioStoreContext.Provider>;
}

export function useStudioStore(): StudioStore {
  const store = useContext(StudioStoreContext);
  if (!store) throw new Error("useStudio must be used inside <StudioStoreProvider>.");
  return store;
}

export function useStudio<Slice>(selector: (state: StudioState) => Slice): Slice {
  return useStore(useStudioStore(), selector);
}
