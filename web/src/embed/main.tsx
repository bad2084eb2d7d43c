// The embed entry (embed.html): one scenario in a blog post. This chunk is
// small on purpose: the engine, the views and the player load only when the
// reader clicks or scrolls the widget into view (EmbedShell).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ErrorBoundary } from '../ErrorBoundary';
import { EmbedShell } from './EmbedShell';
import { decodeEmbed } from './options';
import '../styles.css';
import './embed.css';

const root = document.getElementById('root');
if (!root) throw new Error('IndexLab: #root element missing from embed.html');

createRoot(root).render(
  <StrictMode>
    <ErrorBoundary>
      <EmbedShell decoded={decodeEmbed(location.hash)} />
    </ErrorBoundary>
  </StrictMode>,
);
