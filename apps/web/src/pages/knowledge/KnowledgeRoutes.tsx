import { Route, Routes } from 'react-router';
import KnowledgeBasePage from './KnowledgeBasePage';
import KnowledgePage from './KnowledgePage';

/** The knowledge-base screens, loaded together on demand (one entry in the first bundle): the list and one knowledge base. */
export default function KnowledgeRoutes() {
  return (
    <Routes>
      <Route index element={<KnowledgePage />} />
      <Route path=":id" element={<KnowledgeBasePage />} />
    </Routes>
  );
}
