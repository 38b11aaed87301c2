package sqlfront

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	gmysql "gorm.io/driver/mysql"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
	"gorm.io/gorm/logger"
)

// GORM (gorm.io/gorm with gorm.io/driver/mysql, pinned in go.mod) as an
// application uses it: the dialect it picks from the version, AutoMigrate,
// associations written through the ids inserts answer (batch creates,
// many-to-many join rows), upserts, transactions and savepoints, the
// migrator's column, index and constraint operations, and the
// per-parent limit GORM users write with ROW_NUMBER(). GORM's own suite
// (its tests/ directory) is a nested module the module proxy does not
// serve (proxy.golang.org answers 403 for gorm.io/gorm/tests), so this
// scenario stands in for it. HANDLERDB_ORM_ANCHOR=127.0.0.1:13306 runs it
// against MariaDB 10.11 too, where it passes.

type gormCompany struct {
	ID   uint
	Name string `gorm:"size:50"`
}

type gormLanguage struct {
	Code string `gorm:"primaryKey;size:10"`
	Name string `gorm:"size:50"`
}

type gormPet struct {
	ID     uint
	UserID uint
	Name   string `gorm:"size:50;index"`
}

type gormUser struct {
	ID        uint
	Name      string `gorm:"size:50;uniqueIndex"`
	Age       uint
	CompanyID *uint
	Company   gormCompany
	Pets      []gormPet      `gorm:"foreignKey:UserID"`
	Languages []gormLanguage `gorm:"many2many:gorm_user_languages"`
}

func TestGORMScenario(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	addrs := map[string]string{"handlerdb": ts.s.Addr().String()}
	if a := os.Getenv("HANDLERDB_ORM_ANCHOR"); a != "" {
		addrs["mariadb"] = a
	}
	for server, addr := range addrs {
		t.Run(server, func(t *testing.T) { gormScenario(t, addr) })
	}
}

func gormScenario(t *testing.T, addr string) {
	open := func(dbName string) *gorm.DB {
		// (prepared statements: GORM writes INSERT ... RETURNING for
		// MariaDB 10.5 and later; see preparestream.go)
		db, err := gorm.Open(gmysql.Open(fmt.Sprintf("root@tcp(%s)/%s?parseTime=true&charset=utf8mb4", addr, dbName)),
			&gorm.Config{Logger: logger.Discard})
		if err != nil {
			t.Fatal(err)
		}
		return db
	}
	root := open("")
	must := func(err error, what string) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	must(root.Exec("DROP DATABASE IF EXISTS gormscen").Error, "drop")
	must(root.Exec("CREATE DATABASE gormscen").Error, "create database")
	db := open("gormscen")

	var version string
	must(db.Raw("SELECT VERSION()").Scan(&version).Error, "version")
	if !strings.Contains(version, "MariaDB") {
		t.Errorf("VERSION() %q does not say MariaDB", version)
	}
	must(db.AutoMigrate(&gormCompany{}, &gormLanguage{}, &gormUser{}, &gormPet{}), "AutoMigrate")
	must(db.AutoMigrate(&gormCompany{}, &gormLanguage{}, &gormUser{}, &gormPet{}), "AutoMigrate again")

	// Batch create with associations: each pet and join row belongs to
	// the user it was written with.
	en, fr := gormLanguage{Code: "en", Name: "English"}, gormLanguage{Code: "fr", Name: "French"}
	users := []gormUser{
		{Name: "user_1", Age: 10, Company: gormCompany{Name: "acme"}, Pets: []gormPet{{Name: "p1a"}, {Name: "p1b"}}, Languages: []gormLanguage{en}},
		{Name: "user_2", Age: 20, Pets: []gormPet{{Name: "p2a"}}, Languages: []gormLanguage{en, fr}},
		{Name: "user_3", Age: 30, Pets: []gormPet{{Name: "p3a"}, {Name: "p3b"}, {Name: "p3c"}}, Languages: []gormLanguage{fr}},
	}
	must(db.Create(&users).Error, "create users")
	var got []gormUser
	must(db.Preload("Pets").Preload("Languages").Preload("Company").Order("id").Find(&got).Error, "preload")
	if len(got) != 3 {
		t.Fatalf("%d users", len(got))
	}
	for i, u := range got {
		if u.ID != users[i].ID || u.Name != users[i].Name {
			t.Errorf("user %d: %d %s, created as %d %s", i, u.ID, u.Name, users[i].ID, users[i].Name)
		}
		var pets, langs []string
		for _, p := range u.Pets {
			pets = append(pets, p.Name)
		}
		for _, l := range u.Languages {
			langs = append(langs, l.Code)
		}
		sort.Strings(pets)
		sort.Strings(langs)
		var wantPets, wantLangs []string
		for _, p := range users[i].Pets {
			wantPets = append(wantPets, p.Name)
		}
		for _, l := range users[i].Languages {
			wantLangs = append(wantLangs, l.Code)
		}
		sort.Strings(wantLangs)
		if strings.Join(pets, ",") != strings.Join(wantPets, ",") || strings.Join(langs, ",") != strings.Join(wantLangs, ",") {
			t.Errorf("%s: pets %v languages %v, want %v %v", u.Name, pets, langs, wantPets, wantLangs)
		}
	}
	if got[0].Company.Name != "acme" || got[1].CompanyID != nil {
		t.Errorf("companies: %+v, %v", got[0].Company, got[1].CompanyID)
	}

	// The first two pets of each user by id, as GORM users write it.
	var firstPets []gormPet
	must(db.Raw("SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY id) AS rnn FROM gorm_pets) t WHERE rnn <= 2 ORDER BY id").Scan(&firstPets).Error, "window")
	var names []string
	for _, p := range firstPets {
		names = append(names, p.Name)
	}
	if strings.Join(names, ",") != "p1a,p1b,p2a,p3a,p3b" {
		t.Errorf("first pets per user: %v", names)
	}

	// An upsert that updates answers the existing row's id.
	up := gormUser{Name: "user_2", Age: 21}
	must(db.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "name"}}, DoUpdates: clause.AssignmentColumns([]string{"age"})}).Create(&up).Error, "upsert")
	var age uint
	must(db.Model(&gormUser{}).Where("name = ?", "user_2").Select("age").Scan(&age).Error, "age")
	if age != 21 {
		t.Errorf("upserted age %d", age)
	}
	if up.ID != 0 && up.ID != users[1].ID {
		t.Errorf("upsert's id %d, the row's is %d", up.ID, users[1].ID)
	}

	// Transactions: an error rolls back; a savepoint undoes its part.
	err := db.Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(&gormUser{Name: "gone"}).Error; err != nil {
			return err
		}
		return errors.New("roll back")
	})
	if err == nil {
		t.Error("the transaction's error was lost")
	}
	tx := db.Begin()
	must(tx.Create(&gormUser{Name: "kept"}).Error, "kept")
	must(tx.SavePoint("sp").Error, "savepoint")
	must(tx.Create(&gormUser{Name: "undone"}).Error, "undone")
	must(tx.RollbackTo("sp").Error, "rollback to")
	must(tx.Commit().Error, "commit")
	var count int64
	must(db.Model(&gormUser{}).Where("name IN ?", []string{"gone", "kept", "undone"}).Count(&count).Error, "count")
	if count != 1 {
		t.Errorf("after the transactions: %d of gone, kept, undone", count)
	}

	// LIKE as applications write it.
	var likeNames []string
	must(db.Model(&gormUser{}).Where("name LIKE ?", "user\\_%").Order("name").Pluck("name", &likeNames).Error, "like")
	if strings.Join(likeNames, ",") != "user_1,user_2,user_3" {
		t.Errorf("LIKE user\\_%%: %v", likeNames)
	}

	// The migrator.
	m := db.Migrator()
	type gormPetRenamed struct {
		ID       uint
		UserID   uint
		Name     string `gorm:"size:80;index"`
		Nickname string `gorm:"size:20"`
		Name2    string `gorm:"size:20"`
	}
	if !m.HasColumn(&gormPet{}, "name") || !m.HasIndex(&gormPet{}, "idx_gorm_pets_name") {
		t.Error("HasColumn/HasIndex of pets.name")
	}
	must(db.Exec("ALTER TABLE gorm_pets ADD nickname VARCHAR(20)").Error, "add nickname")
	must(db.Exec("ALTER TABLE gorm_pets RENAME COLUMN nickname TO Nickname").Error, "rename by case")
	pm := db.Table("gorm_pets").Migrator()
	must(pm.RenameColumn(&gormPetRenamed{}, "Nickname", "Name2"), "rename") // CHANGE on MariaDB
	if !m.HasColumn(&gormPet{}, "Name2") || m.HasColumn(&gormPet{}, "nickname") {
		t.Error("RenameColumn")
	}
	must(pm.AlterColumn(&gormPetRenamed{}, "Name"), "alter column")
	if !m.HasIndex(&gormUser{}, "idx_gorm_users_name") {
		t.Error("HasIndex of the unique name")
	}
	must(db.Exec("ALTER TABLE gorm_users DROP CONSTRAINT idx_gorm_users_name").Error, "drop the unique key as a constraint")
	if m.HasIndex(&gormUser{}, "idx_gorm_users_name") {
		t.Error("the unique key is still there")
	}

	// Deleting with associations.
	must(db.Select("Pets", "Languages").Delete(&users[2]).Error, "delete with associations")
	var pets int64
	must(db.Model(&gormPet{}).Where("user_id = ?", users[2].ID).Count(&pets).Error, "pets left")
	if pets != 0 {
		t.Errorf("%d pets of the deleted user", pets)
	}
}
