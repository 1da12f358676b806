// Home: the project list (create, open, rename, delete), and once the offer to set up accounts.

import { SetupOffer } from "@/components/access/SetupOffer";
import { ProjectsHome } from "@/components/projects/ProjectsHome";
import { AppFrame } from "@/components/ui/AppFrame";

export default function HomePage() {
  return (
    <AppFrame>
      <ProjectsHome />
      <div className="mx-auto max-w-4xl px-6 pb-8 empty:hidden">
        <SetupOffer />
      </div>
    </AppFrame>
  );
}
