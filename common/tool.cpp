namespace pl {}
