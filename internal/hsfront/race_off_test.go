//go:build !race

package hsfront

const raceEnabled = false
