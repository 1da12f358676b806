// The root layout: system fonts only (nothing is fetched from the internet), one app frame.
import type { Metadata } from "next";
import type { ReactNode } from "react";
import { gatePage } from "./_lib/page-gate";
import "./globals.css";

export const metadata: Metadata = {
  title: "Tandem",
  description: "A visual studio and durable runtime for Standard Agents",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Once accounts exist, pages need a signed-in user (app/_lib/page-gate.ts).
  await gatePage();
  return (
    <html lang="en">
      <body className="antialiased">{children}</body>
    </html>
  );
}
