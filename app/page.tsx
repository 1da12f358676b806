// Home: the project list (create, open, rename, delete).

import { ProjectsHome } from "@/components/projects/ProjectsHome";
import { AppFrame } from "@/components/ui/AppFrame";

export default function HomePage() {
  return (
    <AppFrame>
      <ProjectsHome />
    </AppFrame>
  );
}
