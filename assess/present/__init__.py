"""What people read and download: summary sentences, charts, exports, the report and the settings file."""
